// `switchboard start`: load the config, run the proxy, reload on SIGHUP or a file change, stop gracefully on SIGTERM/SIGINT.
import { loadConfig, type LoadOptions } from '../config/load.js';
import { createRootLogger } from '../log.js';
import { createSwitchboard } from '../index.js';
import { systemdNotifier } from '../ops/sd-notify.js';
import { ConfigReloader } from './reloader.js';

export async function runStart(configFile: string, options: LoadOptions = {}): Promise<number> {
  const config = loadConfig(configFile, process.env, options);
  const log = createRootLogger({ level: process.env.SWITCHBOARD_LOG_LEVEL ?? config.logLevel });
  const cliLog = log.child({ component: 'cli' });
  // A daemon serving many sessions must not die of one forgotten promise; log it loudly instead.
  process.on('unhandledRejection', (reason) => {
    cliLog.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled promise rejection');
  });
  for (const warning of config.warnings) cliLog.warn(warning);
  for (const skipped of config.skipped) {
    cliLog.warn({ server: skipped.name, reason: skipped.reason }, 'server skipped: its entry cannot be used (--strict refuses the file instead)');
    process.stderr.write(`switchboard: server ${skipped.name} skipped: ${skipped.reason}\n`);
  }
  // Set once the proxy runs; a reload asked for before that has nothing to reload yet.
  let reloader: ConfigReloader | undefined;
  const reloadFile = (): { ok: true } | { ok: false; error: string } => {
    if (reloader === undefined) return { ok: false, error: 'the switchboard is still starting' };
    return reloader.reload('reload requested') ? { ok: true } : { ok: false, error: proxy.core.reloadError?.message ?? 'the config did not load' };
  };
  const proxy = await createSwitchboard(config, { logger: log, reloadFile });
  process.stderr.write(`switchboard listening on ${proxy.url}/mcp\n`);
  // Under a Type=notify unit: READY=1 once servers had their first start, STOPPING=1 on stop; else no-ops.
  const systemd = systemdNotifier(cliLog);
  void systemd.readyWhenSettled(proxy.core, proxy.url);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        cliLog.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      stopping = true;
      cliLog.info({ signal }, 'stopping');
      void systemd.stopping();
      reloader?.stop();
      void proxy.close({ graceMs: proxy.core.config.limits.shutdownGraceMs }).then(() => {
        cliLog.info('stopped');
        log.flush();
        resolve(0);
      });
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
    const watching = new ConfigReloader(config.file, proxy, log.child({ component: 'reload' }), options, config);
    reloader = watching;
    watching.watch();
    process.on('SIGHUP', () => watching.reload('SIGHUP'));
  });
}
