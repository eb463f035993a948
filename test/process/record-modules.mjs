// Given to the built server with `--import` by idle-modules.test.ts: writes down the URL of every
// module the process loads as it loads it, and at exit the modules of Node's own that it loaded.
// The server's code is not changed for the test; only the process it runs in is watched.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.MODULE_RECORD_FILE;
if (file) {
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
  process.on('exit', () => {
    appendFileSync(file, process.moduleLoadList.map((name) => `builtin:${name}\n`).join(''));
  });
}
