// Where each client keeps its MCP servers on Linux and macOS, from HOME, XDG_CONFIG_HOME and the
// project folder, so a made-up HOME finds made-up configs.
import path from 'node:path';
import type { ClientId, FormatId, Source } from './types.js';

export interface Places {
  readonly home: string;
  /** $XDG_CONFIG_HOME, or ~/.config. */
  readonly xdgConfig: string;
  /** ~/Library/Application Support (macOS); looked at on every system, since a made-up HOME may hold it. */
  readonly appSupport: string;
  /** The project folder for project-level files (.mcp.json, .vscode/mcp.json, ...). */
  readonly project: string;
  readonly codexHome: string;
}

export function places(env: NodeJS.ProcessEnv, project: string): Places {
  const home = env['HOME'] ?? '';
  const xdg = env['XDG_CONFIG_HOME'];
  return {
    home,
    xdgConfig: xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.config'),
    appSupport: path.join(home, 'Library', 'Application Support'),
    project: path.resolve(project),
    codexHome: env['CODEX_HOME'] !== undefined && env['CODEX_HOME'] !== '' ? env['CODEX_HOME'] : path.join(home, '.codex'),
  };
}

/** Every file each client may read, user-level first; missing ones are skipped by the caller. */
export function sourcesOf(client: ClientId, p: Places): Source[] {
  const user = (file: string, format: FormatId): Source => ({ client, file, format });
  const project = (file: string, format: FormatId): Source => ({ client, file: path.join(p.project, file), format, project: p.project });
  switch (client) {
    case 'claude-desktop':
      return [user(path.join(p.appSupport, 'Claude', 'claude_desktop_config.json'), 'mcpServers'), user(path.join(p.xdgConfig, 'Claude', 'claude_desktop_config.json'), 'mcpServers')];
    case 'claude-code':
      return [user(path.join(p.home, '.claude.json'), 'claude-code'), project('.mcp.json', 'mcpServers')];
    case 'cursor':
      return [user(path.join(p.home, '.cursor', 'mcp.json'), 'mcpServers'), project(path.join('.cursor', 'mcp.json'), 'mcpServers')];
    case 'vscode':
      return [
        user(path.join(p.appSupport, 'Code', 'User', 'mcp.json'), 'vscode'),
        user(path.join(p.xdgConfig, 'Code', 'User', 'mcp.json'), 'vscode'),
        user(path.join(p.appSupport, 'Code', 'User', 'settings.json'), 'vscode-settings'),
        user(path.join(p.xdgConfig, 'Code', 'User', 'settings.json'), 'vscode-settings'),
        project(path.join('.vscode', 'mcp.json'), 'vscode'),
      ];
    case 'windsurf':
      return [user(path.join(p.home, '.codeium', 'windsurf', 'mcp_config.json'), 'windsurf')];
    case 'codex':
      return [user(path.join(p.codexHome, 'config.toml'), 'codex')];
    case 'zed':
      // Zed keeps its settings under ~/.config/zed on macOS as well.
      return [user(path.join(p.xdgConfig, 'zed', 'settings.json'), 'zed'), project(path.join('.zed', 'settings.json'), 'zed')];
    case 'gemini':
      return [user(path.join(p.home, '.gemini', 'settings.json'), 'gemini'), project(path.join('.gemini', 'settings.json'), 'gemini')];
  }
}

/** A display form of a path: under HOME as ~/... */
export function shown(file: string, home: string): string {
  return home !== '' && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
