import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { parseCliArgs, USAGE } from '../../src/server/parse-cli-args.js';

function codeOf(argv: string[]): string {
  try {
    parseCliArgs(argv);
  } catch (error) {
    if (GatewayError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('parseCliArgs', () => {
  it('should serve with no arguments', () => {
    expect(parseCliArgs([])).toEqual({ command: 'serve' });
  });

  it('should read serve, --config, --port and --host', () => {
    expect(parseCliArgs(['serve', '--config', 'switchyard.yaml', '--port', '9000', '--host', '0.0.0.0'])).toEqual({
      command: 'serve',
      configPath: 'switchyard.yaml',
      port: 9000,
      host: '0.0.0.0',
    });
    expect(parseCliArgs(['-c', 'a.json', '-p', '0'])).toEqual({ command: 'serve', configPath: 'a.json', port: 0 });
    expect(parseCliArgs(['--port=9001'])).toEqual({ command: 'serve', port: 9001 });
  });

  it('should answer --help and --version', () => {
    expect(parseCliArgs(['--help'])).toEqual({ command: 'help' });
    expect(parseCliArgs(['help'])).toEqual({ command: 'help' });
    expect(parseCliArgs(['-v'])).toEqual({ command: 'version' });
  });

  it('should reject a port that is not a number from 0 to 65535', () => {
    expect(codeOf(['--port', 'abc'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['--port', '65536'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['--port', '-1'])).toBe('CONFIG_FLAG_INVALID');
  });

  it('should reject unknown flags and commands', () => {
    expect(codeOf(['--prot', '9000'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['start'])).toBe('CONFIG_FLAG_INVALID');
    expect(codeOf(['serve', 'extra'])).toBe('CONFIG_FLAG_INVALID');
  });

  it("should name the closest flag, command or protocol to a near miss, not Node's parser text", () => {
    const messageOf = (argv: string[]) => {
      try {
        parseCliArgs(argv);
        return 'parsed';
      } catch (error) {
        return (error as Error).message.split('\n')[0];
      }
    };
    expect(messageOf(['check', '--prot', 'chat'])).toBe("Unknown option '--prot'. Did you mean '--protocol'?");
    expect(messageOf(['keys', 'list', '--databse', 'x.db'])).toBe("Unknown option '--databse'. Did you mean '--database'?");
    expect(messageOf(['-x'])).toBe("Unknown option '-x'. The options are listed below.");
    expect(messageOf(['modles'])).toBe("Unknown command 'modles'. Did you mean 'models'?");
    expect(messageOf(['start'])).toBe("Unknown command 'start'.");
    expect(messageOf(['check', '--base-url', 'http://h/v1', '--model', 'm', '--protocol', 'mesages'])).toBe(
      "--protocol takes chat, responses, messages or all; got 'mesages'. Did you mean 'messages'?",
    );
  });

  describe('config check', () => {
    it('should read the file as an argument or as --config', () => {
      expect(parseCliArgs(['config', 'check', 'switchyard.yaml'])).toEqual({ command: 'config-check', configPath: 'switchyard.yaml' });
      expect(parseCliArgs(['config', 'check', '--config', 'a.json'])).toEqual({ command: 'config-check', configPath: 'a.json' });
      expect(parseCliArgs(['config', 'check', '-c', 'a.json', 'a.json'])).toEqual({ command: 'config-check', configPath: 'a.json' });
    });

    it('should refuse a missing file, two files, serve flags and other subcommands', () => {
      expect(codeOf(['config', 'check'])).toBe('CONFIG_FLAG_INVALID');
      expect(codeOf(['config', 'check', 'a.yaml', '--config', 'b.yaml'])).toBe('CONFIG_FLAG_INVALID');
      expect(codeOf(['config', 'check', 'a.yaml', '--port', '9000'])).toBe('CONFIG_FLAG_INVALID');
      expect(codeOf(['config', 'show', 'a.yaml'])).toBe('CONFIG_FLAG_INVALID');
      expect(codeOf(['config'])).toBe('CONFIG_FLAG_INVALID');
    });

    it('should be in the help text', () => {
      expect(USAGE).toContain('switchyard config check FILE');
    });
  });
});
