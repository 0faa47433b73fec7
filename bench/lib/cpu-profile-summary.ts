/**
 * A V8 CPU profile (.cpuprofile) summed up: where the sampled time went, by package or source file and by
 * function, self and inclusive. Enough to say what bounds a row without opening a flame graph; the
 * profile itself stays beside the summary for one.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  /** Share of the sampled time, 0–1. */
  share: number;
}

export interface ProfileSummary {
  sampledMs: number;
  /** Time with nothing to run: what the process could still have done. */
  idle: number;
  selfByPlace: Share[];
  selfByFunction: Share[];
  inclusiveByPlace: Share[];
}

/** A frame's place: its npm package, a node: module, our source file relative to the checkout, or native. */
function placeOf(frame: CallFrame, root: string): string {
  if (!frame.url) return `(native) ${frame.functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1];
  if (pkg) return pkg;
  if (frame.url.startsWith('node:') || frame.url.startsWith('wasm://')) return frame.url;
  const path = frame.url.replace(/^file:\/\//, '');
  return path.startsWith(root) ? path.slice(root.length) : path;
}

const top = (totals: Map<string, number>, all: number, count: number): Share[] =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, time]) => ({ name, share: all ? time / all : 0 }));

export function summarize(profile: CpuProfile, root: string, count = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const timeOf = new Map<number, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    timeOf.set(id, (timeOf.get(id) ?? 0) + dt);
    all += dt;
  });
  const selfPlace = new Map<string, number>();
  const selfFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, t: number) => m.set(k, (m.get(k) ?? 0) + t);
  let idle = 0;
  for (const [id, time] of timeOf) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') idle += time;
    const place = placeOf(node.callFrame, root);
    add(selfPlace, place, time);
    add(selfFunction, `${node.callFrame.functionName || '(anonymous)'} · ${place}`, time);
    // Each place once per sample, however deep it recurs.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const name = placeOf(byId.get(at)!.callFrame, root);
      if (name === '(native) (root)' || seen.has(name)) continue;
      seen.add(name);
      add(inclusive, name, time);
    }
  }
  return {
    sampledMs: all / 1000,
    idle: all ? idle / all : 0,
    selfByPlace: top(selfPlace, all, count),
    selfByFunction: top(selfFunction, all, count),
    inclusiveByPlace: top(inclusive, all, count),
  };
}
