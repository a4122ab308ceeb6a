/**
 * Content gaps (services/content-gaps.ts): queries that differ only in case and spacing count as one topic; a graceful close
 * waits for the writes under way.
 */
import { describe, expect, it } from 'vitest';
import { ContentGapRecorder, MAX_TOPIC_LENGTH, normaliseTopic } from '../../src/services/content-gaps';

describe('content gap topics', () => {
  it('folds case and whitespace runs', () => {
    expect(normaliseTopic('  Install   the\tCLI ')).toBe('install the cli');
  });
  it('cuts long queries without splitting a surrogate pair', () => {
    const topic = normaliseTopic(`${'a'.repeat(MAX_TOPIC_LENGTH - 1)}😀tail`);
    expect(topic.length).toBeLessThanOrEqual(MAX_TOPIC_LENGTH);
    expect(topic).toBe('a'.repeat(MAX_TOPIC_LENGTH - 1));
  });
});

describe('content gap recorder', () => {
  it('lets a graceful close wait for the writes under way', async () => {
    const written: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const db = {
      prisma: {
        contentGap: {
          updateMany: async () => ({ count: 0 }),
          create: async ({ data }: { data: { topic: string } }) => {
            await gate;
            written.push(data.topic);
            return data;
          },
        },
      },
    };
    const recorder = new ContentGapRecorder({ db: db as never, log: { error: () => undefined } as never });
    recorder.record({ projectId: 'prj_x', source: 'search', topic: 'Missing Thing' });
    let settled = false;
    const settling = recorder.settle().then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false);
    release();
    await settling;
    expect(written).toEqual(['missing thing']);
  });

  it('adds up repeats of a topic in memory and writes the topic once', async () => {
    const created: Array<{ topic: string; frequency: number; version: string }> = [];
    const db = {
      prisma: {
        contentGap: {
          updateMany: async () => ({ count: 0 }),
          create: async ({ data }: { data: { topic: string; frequency: number; version: string } }) => {
            created.push({ topic: data.topic, frequency: data.frequency, version: data.version });
            return data;
          },
        },
      },
    };
    const recorder = new ContentGapRecorder({ db: db as never, log: { error: () => undefined } as never });
    recorder.record({ projectId: 'prj_x', source: 'search', topic: 'Missing Thing' });
    recorder.record({ projectId: 'prj_x', source: 'search', topic: '  missing   thing ' });
    recorder.record({ projectId: 'prj_x', source: 'search', topic: 'missing thing', version: 'v1' });
    expect(created).toEqual([]);
    await recorder.settle();
    expect(created).toEqual([
      { topic: 'missing thing', frequency: 2, version: '' },
      { topic: 'missing thing', frequency: 1, version: 'v1' },
    ]);
  });
});
