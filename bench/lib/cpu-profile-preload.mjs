// Preloaded into the product server by bench/password-sign-in.ts --cpu-prof (node refuses --cpu-prof in
// NODE_OPTIONS). SIGUSR2 starts the inspector's CPU profiler; the next SIGUSR2 stops it and writes the
// profile, so it covers the load runs and not the start-up. The pid file tells the bench whom to signal.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  let profiling = false;
  let taken = 0;
  process.on('SIGUSR2', () => {
    if (!profiling) {
      session.post('Profiler.start');
      profiling = true;
      return;
    }
    profiling = false;
    session.post('Profiler.stop', (err, result) => {
      const file = join(dir, `server-${process.pid}-${++taken}.cpuprofile`);
      if (!err) writeFileSync(file, JSON.stringify(result.profile));
    });
  });
  writeFileSync(join(dir, 'server.pid'), String(process.pid));
}
