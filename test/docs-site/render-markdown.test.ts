import { describe, expect, it } from 'vitest';
import { ORIGIN_MARK } from '../../src/docs-site/docs-markers.js';
import { renderMarkdown } from '../../src/docs-site/render-markdown.js';

// The snippets a client guide shows, one per language it may be written in: each has the written
// address twice, which must come out whole (as the origin mark) after highlighting.
const SNIPPETS: Record<string, string> = {
  bash: 'export OPENAI_BASE_URL=http://localhost:8787/v1\ncurl -s http://localhost:8787/v1/models -H "Authorization: Bearer $SWITCHYARD_API_KEY"',
  sh: 'ANTHROPIC_BASE_URL=http://localhost:8787 claude # http://localhost:8787',
  console: '$ curl http://localhost:8787/health\n{"status":"ok"} http://localhost:8787',
  ts: "const openai = new OpenAI({ baseURL: 'http://localhost:8787/v1', apiKey: process.env.SWITCHYARD_API_KEY });\n// http://localhost:8787",
  js: 'const base = `http://localhost:8787/v1`; fetch("http://localhost:8787/v1/models");',
  json: '{ "baseURL": "http://localhost:8787/v1", "other": "http://localhost:8787" }',
  yaml: 'base_url: http://localhost:8787/v1\nother: "http://localhost:8787"',
  toml: '[model_providers.switchyard]\nbase_url = "http://localhost:8787/v1"\n# http://localhost:8787',
  python: 'client = OpenAI(base_url="http://localhost:8787/v1")  # http://localhost:8787',
  http: 'POST http://localhost:8787/v1/chat/completions HTTP/1.1\nReferer: http://localhost:8787',
  dockerfile: 'ENV OPENAI_BASE_URL=http://localhost:8787/v1\nRUN curl http://localhost:8787/health',
  text: 'http://localhost:8787 and http://localhost:8787',
  '': 'http://localhost:8787 and http://localhost:8787',
};

describe('renderMarkdown', () => {
  for (const [language, code] of Object.entries(SNIPPETS)) {
    it(`should keep the written address whole in a ${language || 'plain'} block`, () => {
      const page = renderMarkdown('clients/x.md', `# X\n\n\`\`\`${language}\n${code}\n\`\`\`\n`);
      expect(page.html).not.toContain('localhost:8787');
      expect(page.html.split(ORIGIN_MARK).length - 1).toBe(2);
    });
  }

  it('should highlight the languages it knows and escape the code of others', () => {
    expect(renderMarkdown('a.md', "```ts\nconst a = '<b>';\n```\n").html).toContain(
      '<span class="hljs-keyword">const</span> a = <span class="hljs-string">&#x27;&lt;b&gt;&#x27;</span>',
    );
    expect(renderMarkdown('a.md', '```brainfuck\n<b>+</b>\n```\n').html).toContain('<code class="language-brainfuck">&lt;b&gt;+&lt;/b&gt;');
  });

  it('should take the title from the first # heading, else the file name, and the text for search from prose and code', () => {
    const page = renderMarkdown('clients/openai.md', '# The `openai` SDK\n\nSome **prose**.\n\n```bash\nnpm install openai\n```\n');
    expect(page.title).toBe('The openai SDK');
    expect(page.text).toBe('The openai SDK Some prose. npm install openai');
    expect(renderMarkdown('clients/untitled.md', 'No heading.').title).toBe('clients/untitled');
  });
});
