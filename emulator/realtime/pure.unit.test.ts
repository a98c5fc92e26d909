// The realtime emulator's pure parts: frames as realtime-js 2.119 encodes and decodes them, filters as
// realtime parses them, and pgoutput messages as Postgres sends them.
import { describe, expect, it } from 'vitest';
import Serializer from '../../node_modules/@supabase/realtime-js/src/lib/serializer.ts';
import { bindingId, parseSubscriptionParams } from './filters.ts';
import { decodeFrame, encodeFrame, isUserBroadcast } from './frames.ts';
import { decodeLogical } from './pgoutput.ts';

describe('frames', () => {
  const serializer = new Serializer();

  it('decodes the binary broadcast push realtime-js sends under 2.0.0', () => {
    const message = { join_ref: '1', ref: '2', topic: 'realtime:room', event: 'broadcast' };
    const encoded = serializer.encode(
      { ...message, payload: { type: 'broadcast', event: 'cursör', payload: { x: 1 } } },
      (r: ArrayBuffer | string) => r,
    );
    if (typeof encoded === 'string') throw new Error('expected a binary frame');
    const decoded = decodeFrame('2.0.0', Buffer.from(encoded), true);
    expect(decoded).toMatchObject({ joinRef: '1', ref: '2', topic: 'realtime:room', event: 'broadcast' });
    if (!isUserBroadcast(decoded.payload)) throw new Error('expected a user broadcast');
    expect(decoded.payload.event).toBe('cursör');
    expect(decoded.payload.encoding).toBe('json');
    expect(JSON.parse(decoded.payload.payload.toString())).toEqual({ x: 1 });
  });

  it('encodes user broadcasts as the kind 4 frame realtime-js decodes, and as JSON under 1.0.0', () => {
    const broadcast = { event: 'hi', encoding: 'json' as const, payload: Buffer.from('{"a":1}') };
    const frame = encodeFrame('2.0.0', {
      joinRef: null,
      ref: null,
      topic: 'realtime:room',
      event: 'broadcast',
      payload: broadcast,
    });
    if (!Buffer.isBuffer(frame)) throw new Error('expected a binary frame');
    const buffer = new Uint8Array(frame).buffer;
    const decoded = serializer.decode(buffer, (m: unknown) => m);
    expect(decoded).toEqual({
      join_ref: null,
      ref: null,
      topic: 'realtime:room',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'hi', payload: { a: 1 } },
    });
    const v1 = encodeFrame('1.0.0', {
      joinRef: null,
      ref: null,
      topic: 'realtime:room',
      event: 'broadcast',
      payload: broadcast,
    });
    expect(JSON.parse(String(v1))).toEqual({
      topic: 'realtime:room',
      event: 'broadcast',
      payload: { event: 'hi', payload: { a: 1 }, type: 'broadcast' },
      ref: null,
    });
    const binary = { ...broadcast, encoding: 'binary' as const };
    expect(
      encodeFrame('1.0.0', { joinRef: null, ref: null, topic: 't', event: 'broadcast', payload: binary }),
    ).toBeUndefined();
  });

  it('reads V2 arrays and V1 objects, and answers V1 without join_ref', () => {
    expect(decodeFrame('2.0.0', Buffer.from('["1","2","phoenix","heartbeat",{}]'), false)).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
    });
    expect(
      decodeFrame(
        '1.0.0',
        Buffer.from('{"topic":"t","event":"e","payload":{"a":1},"ref":"3","join_ref":"1"}'),
        false,
      ),
    ).toEqual({ joinRef: '1', ref: '3', topic: 't', event: 'e', payload: { a: 1 } });
    const reply = encodeFrame('1.0.0', {
      joinRef: '1',
      ref: '3',
      topic: 't',
      event: 'phx_reply',
      payload: { status: 'ok' },
    });
    expect(JSON.parse(String(reply))).toEqual({
      topic: 't',
      event: 'phx_reply',
      payload: { status: 'ok' },
      ref: '3',
    });
    expect(() => decodeFrame('2.0.0', Buffer.from('{"topic":"t"}'), false)).toThrow('expected V2 array');
  });
});

describe('parseSubscriptionParams', () => {
  it('defaults the schema to public and the table to *, as realtime does', () => {
    expect(parseSubscriptionParams({ table: 'tasks' })).toEqual({
      ok: true,
      params: { action: '*', schema: 'public', table: 'tasks', filters: [], select: null },
    });
    expect(parseSubscriptionParams({ event: 'insert', schema: 'public' })).toMatchObject({
      ok: true,
      params: { action: 'INSERT', table: '*' },
    });
  });

  it('reads ANDed terms, in lists, quoted values and not.', () => {
    const parsed = parseSubscriptionParams({
      event: '*',
      schema: 'public',
      table: 't',
      filter: 'id=gt.0,status=not.in.(done,todo),name=eq."a,b"',
    });
    expect(parsed).toMatchObject({
      ok: true,
      params: {
        filters: [
          { column: 'id', op: 'gt', value: '0', negate: false },
          { column: 'status', op: 'in', value: '{done,todo}', negate: true },
          { column: 'name', op: 'eq', value: 'a,b', negate: false },
        ],
      },
    });
  });

  it("answers realtime's errors for what it refuses", () => {
    expect(parseSubscriptionParams({ schema: 'public', table: 't', filter: 'subject=foo.hey' })).toEqual({
      ok: false,
      error: 'Error parsing `filter` params: ["foo", "hey"]',
    });
    expect(parseSubscriptionParams({ schema: 'public', table: 't', filter: 'id=in.1,2' })).toMatchObject({
      ok: false,
      error: 'Error parsing `filter` params: `in` filter value must be wrapped by parentheses',
    });
    expect(parseSubscriptionParams({})).toMatchObject({ ok: false });
  });

  it('gives equal params the same id, in the 27-bit range of phash2', () => {
    const a = bindingId({ event: '*', schema: 'public', table: 't' });
    expect(a).toBe(bindingId({ table: 't', schema: 'public', event: '*' }));
    expect(a).not.toBe(bindingId({ event: 'INSERT', schema: 'public', table: 't' }));
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThan(2 ** 27);
  });
});

describe('pgoutput', () => {
  function relation(): Buffer {
    const parts = [Buffer.from('R'), Buffer.alloc(4), Buffer.from('public\0tasks\0d'), Buffer.alloc(2)];
    parts[1]?.writeUInt32BE(16384);
    parts[3]?.writeInt16BE(2);
    const column = (key: boolean, name: string, oid: number) => {
      const b = Buffer.alloc(8);
      b.writeUInt32BE(oid, 0);
      b.writeInt32BE(-1, 4);
      return Buffer.concat([Buffer.from([key ? 1 : 0]), Buffer.from(`${name}\0`), b]);
    };
    return Buffer.concat([...parts, column(true, 'id', 23), column(false, 'title', 25)]);
  }

  it('reads relations and tuples, with nulls and unchanged TOAST values', () => {
    expect(decodeLogical(relation())).toEqual({
      tag: 'relation',
      relation: {
        oid: 16384,
        schema: 'public',
        table: 'tasks',
        replicaIdentity: 'd',
        columns: [
          { name: 'id', typeOid: 23, isKey: true },
          { name: 'title', typeOid: 25, isKey: false },
        ],
      },
    });
    const update = Buffer.concat([
      Buffer.from('U'),
      Buffer.from([0, 0, 0x40, 0]),
      Buffer.from('K'),
      Buffer.from([0, 2, 't'.charCodeAt(0), 0, 0, 0, 1, '7'.charCodeAt(0), 'n'.charCodeAt(0)]),
      Buffer.from('N'),
      Buffer.from([0, 2, 't'.charCodeAt(0), 0, 0, 0, 1, '8'.charCodeAt(0), 'u'.charCodeAt(0)]),
    ]);
    expect(decodeLogical(update)).toEqual({
      tag: 'update',
      relationOid: 16384,
      oldKind: 'K',
      old: ['7', null],
      tuple: ['8', undefined],
    });
  });
});
