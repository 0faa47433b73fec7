// The node:test reporter of a grouped test process (scripts/run-tests.mjs runs several test files in one
// Node process, each file's tests inside a suite named after the file; scripts/test-group.mjs writes that
// entry). It gives each file the spec reporter's output it would have had in a process of its own: the
// file's suite is taken away (one nesting level less), and the summary (tests, suites, pass, fail…) counts
// that file's tests only. Each file's output begins with a line
//   \x1erun-tests report {"index":0,"ok":true}
// that the runner splits the destination on; nothing outside the files' suites is printed.
import { spec as SpecReporter } from 'node:test/reporters';

export const REPORT_MARK = '\x1erun-tests report ';

/** @param {AsyncIterable<{ type: string, data: any }>} source */
export default async function* groupReporter(source) {
  let index = -1;
  /** @type {InstanceType<typeof SpecReporter> | null} */
  let spec = null;
  let output = [];
  let counts = null;
  for await (const event of source) {
    const data = event.data;
    if (data?.nesting === 0) {
      if (event.type === 'test:start') {
        index += 1;
        spec = new SpecReporter();
        output = [];
        spec.on('data', (chunk) => output.push(chunk));
        counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
      } else if ((event.type === 'test:pass' || event.type === 'test:fail') && spec) {
        const ok = event.type === 'test:pass';
        for (const [name, n] of Object.entries(counts))
          spec.write({ type: 'test:diagnostic', data: { nesting: 0, message: `${name} ${n}` } });
        spec.write({
          type: 'test:diagnostic',
          data: { nesting: 0, message: `duration_ms ${data.details?.duration_ms ?? 0}` },
        });
        spec.end();
        await new Promise((resolve) => spec.once('end', resolve).resume());
        yield `${REPORT_MARK}${JSON.stringify({ index, ok })}\n${output.join('')}`;
        spec = null;
      }
      continue;
    }
    if (!spec || data?.nesting === undefined) continue;
    if (event.type === 'test:pass' || event.type === 'test:fail') count(counts, event);
    spec.write({ ...event, data: { ...data, nesting: data.nesting - 1 } });
  }
}

/** Node's own summary counts, for one file. */
function count(counts, event) {
  const data = event.data;
  if (data.details?.type === 'suite') {
    counts.suites += 1;
    return;
  }
  counts.tests += 1;
  if (data.skip) counts.skipped += 1;
  else if (data.todo) counts.todo += 1;
  else if (event.type === 'test:pass') counts.pass += 1;
  else if (data.details?.error?.failureType === 'cancelledByParent') counts.cancelled += 1;
  else counts.fail += 1;
}
