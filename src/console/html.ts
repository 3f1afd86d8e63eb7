/** Text made safe for HTML: a tagged template escapes every value it interpolates, unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

type Part = Html | string | number | undefined | null | false | readonly Part[];

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  return escapeHtml(String(part));
}

/** `html\`<p>${name}</p>\``: values are escaped; arrays are joined; `undefined`, `null` and `false` render as nothing. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => (text += render(value) + (strings[index + 1] ?? '')));
  return new Html(text);
}
