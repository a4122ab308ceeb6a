/**
 * Serializes saves of one file: at most one write in flight, and only the latest text waits
 * behind it (intermediate texts are skipped, the last one is always written). `flush()` resolves
 * when everything typed so far is stored.
 */
export class SaveQueue {
  private inFlight: Promise<void> | null = null;
  private next: string | null = null;

  constructor(private readonly write: (text: string) => Promise<void>, private readonly onError: (err: unknown) => void) {}

  /** Queues `text` to be saved. */
  push(text: string): void {
    this.next = text;
    if (!this.inFlight) this.inFlight = this.drain();
  }

  private async drain(): Promise<void> {
    while (this.next !== null) {
      const text = this.next;
      this.next = null;
      try {
        await this.write(text);
      } catch (err) {
        this.onError(err);
      }
    }
    this.inFlight = null;
  }

  /** Resolves when every queued text is written. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }
}
