// Group commit: writes that arrive while a group is being written wait for it, and are then written
// together, as the next group (one statement, one transaction, one commit). Batching without a
// timer: a write on an idle committer starts at once, so a lone request never waits; under load the
// groups grow by themselves with the time a group takes. `windowMs` may hold a group open a little
// longer, only one whose writes arrived while another was being written. With `gatherTurn` (PGlite,
// which runs a write on this thread, so no group would form), a write on an idle committer waits for
// the end of the event loop's turn (setImmediate, not a timer). Figures and why: docs/performance.md
// ("Group commit"), docs/decisions/group-commit.md.

export interface GroupSettings {
  /** Most writes in one group; 1 writes every one alone (no grouping). */
  maxRows: number;
  /** How long, counted from its first write's arrival, a queued group may stay open for more; 0: none. */
  windowMs: number;
  /** Gather the writes of one event-loop turn before writing (a database on this thread: PGlite). */
  gatherTurn?: boolean;
}

/**
 * Writes the group in one commit and answers each item's result, in order. A throw fails every
 * item of the group with that error (nothing of the group was committed).
 */
export type WriteGroup<Item, Result> = (items: readonly Item[]) => Promise<readonly Result[]>;

interface Waiting<Item, Result> {
  item: Item;
  arrivedAt: number;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/** Counts, so tests and the bench can see that writes were grouped. */
export interface GroupCounts {
  groups: number;
  rows: number;
  largestGroup: number;
}

export class GroupCommitter<Item, Result> {
  private readonly queue: Waiting<Item, Result>[] = [];
  private writing = false;
  private timer: NodeJS.Timeout | undefined;
  private gathering: NodeJS.Immediate | undefined;
  readonly counts: GroupCounts = { groups: 0, rows: 0, largestGroup: 0 };

  constructor(
    private readonly writeGroup: WriteGroup<Item, Result>,
    private readonly settings: GroupSettings,
    /** Told the size of each group as it is sent (the gateway's /metrics). */
    private readonly onGroup?: (rows: number) => void,
  ) {}

  /** The item's result once the group holding it has committed; the group's error otherwise. */
  write(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, arrivedAt: performance.now(), resolve, reject });
      if (this.writing) {
        return;
      }
      if (this.queue.length >= this.settings.maxRows) {
        this.next(false);
      } else if (this.timer === undefined && this.gathering === undefined) {
        if (this.settings.gatherTurn) {
          this.gathering = setImmediate(() => this.next(false));
        } else {
          this.next(false);
        }
      }
    });
  }

  /** Writes the next group now, or once its window closes (only a group that waited behind another has one). */
  private next(waitedBehindGroup: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearImmediate(this.gathering);
    this.gathering = undefined;
    this.writing = false;
    if (this.queue.length === 0) {
      return;
    }
    const open = this.settings.windowMs - (performance.now() - this.queue[0]!.arrivedAt);
    if (waitedBehindGroup && open > 0 && this.queue.length < this.settings.maxRows) {
      this.timer = setTimeout(() => this.next(false), open);
      return;
    }
    this.writing = true;
    const group = this.queue.splice(0, this.settings.maxRows);
    this.counts.groups++;
    this.counts.rows += group.length;
    this.counts.largestGroup = Math.max(this.counts.largestGroup, group.length);
    this.onGroup?.(group.length);
    void this.writeGroup(group.map((waiting) => waiting.item))
      .then(
        (results) => group.forEach((waiting, position) => waiting.resolve(results[position]!)),
        (error: unknown) => group.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => this.next(true));
  }
}
