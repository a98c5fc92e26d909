// The logical replication protocol, as far as realtime needs it: the walsender's CopyData messages
// (XLogData 'w', primary keepalive 'k') and pgoutput's protocol 1 messages inside them
// (https://www.postgresql.org/docs/current/protocol-logicalrep-message-formats.html).

/** Microseconds between the Unix epoch and Postgres's (2000-01-01). */
const PG_EPOCH_MICROS = 946_684_800_000_000n;

export interface RelationColumn {
  name: string;
  typeOid: number;
  /** Part of the replica identity (the primary key, unless the table says otherwise). */
  isKey: boolean;
}

export interface Relation {
  oid: number;
  schema: string;
  table: string;
  /** `d` default, `n` nothing, `f` full, `i` index. */
  replicaIdentity: string;
  columns: RelationColumn[];
}

/** A column of a tuple: its text form, `null`, or `undefined` for an unchanged TOASTed value. */
export type TupleValue = string | null | undefined;

export type LogicalMessage =
  | { tag: 'begin'; commitTime: Date; xid: number }
  | { tag: 'commit'; endLsn: bigint }
  | { tag: 'relation'; relation: Relation }
  | { tag: 'insert'; relationOid: number; tuple: TupleValue[] }
  | {
      tag: 'update';
      relationOid: number;
      old: TupleValue[] | null;
      oldKind: 'K' | 'O' | null;
      tuple: TupleValue[];
    }
  | { tag: 'delete'; relationOid: number; old: TupleValue[]; oldKind: 'K' | 'O' }
  | { tag: 'other' };

export type CopyMessage =
  | { tag: 'xlog'; walEnd: bigint; message: LogicalMessage }
  | { tag: 'keepalive'; walEnd: bigint; replyRequested: boolean }
  | { tag: 'unknown' };

class Reader {
  offset = 0;
  constructor(readonly buf: Buffer) {}
  u8(): number {
    return this.buf.readUInt8(this.offset++);
  }
  i16(): number {
    const v = this.buf.readInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  i32(): number {
    const v = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  u32(): number {
    const v = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  i64(): bigint {
    const v = this.buf.readBigInt64BE(this.offset);
    this.offset += 8;
    return v;
  }
  u64(): bigint {
    const v = this.buf.readBigUInt64BE(this.offset);
    this.offset += 8;
    return v;
  }
  cstring(): string {
    const end = this.buf.indexOf(0, this.offset);
    const s = this.buf.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return s;
  }
  bytes(n: number): Buffer {
    const b = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return b;
  }
}

function timestamp(micros: bigint): Date {
  return new Date(Number((micros + PG_EPOCH_MICROS) / 1000n));
}

function tuple(r: Reader): TupleValue[] {
  const n = r.i16();
  const values: TupleValue[] = [];
  for (let i = 0; i < n; i++) {
    const kind = String.fromCharCode(r.u8());
    if (kind === 'n') values.push(null);
    else if (kind === 'u') values.push(undefined);
    else values.push(r.bytes(r.i32()).toString('utf8'));
  }
  return values;
}

export function decodeLogical(buf: Buffer): LogicalMessage {
  const r = new Reader(buf);
  const tag = String.fromCharCode(r.u8());
  switch (tag) {
    case 'B': {
      r.u64(); // final LSN
      const commitTime = timestamp(r.i64());
      return { tag: 'begin', commitTime, xid: r.u32() };
    }
    case 'C': {
      r.u8();
      r.u64();
      return { tag: 'commit', endLsn: r.u64() };
    }
    case 'R': {
      const oid = r.u32();
      const schema = r.cstring();
      const table = r.cstring();
      const replicaIdentity = String.fromCharCode(r.u8());
      const n = r.i16();
      const columns: RelationColumn[] = [];
      for (let i = 0; i < n; i++) {
        const flags = r.u8();
        const name = r.cstring();
        const typeOid = r.u32();
        r.i32(); // type modifier
        columns.push({ name, typeOid, isKey: (flags & 1) === 1 });
      }
      return { tag: 'relation', relation: { oid, schema, table, replicaIdentity, columns } };
    }
    case 'I': {
      const relationOid = r.u32();
      r.u8(); // 'N'
      return { tag: 'insert', relationOid, tuple: tuple(r) };
    }
    case 'U': {
      const relationOid = r.u32();
      let kind = String.fromCharCode(r.u8());
      let old: TupleValue[] | null = null;
      let oldKind: 'K' | 'O' | null = null;
      if (kind === 'K' || kind === 'O') {
        oldKind = kind;
        old = tuple(r);
        kind = String.fromCharCode(r.u8());
      }
      return { tag: 'update', relationOid, old, oldKind, tuple: tuple(r) };
    }
    case 'D': {
      const relationOid = r.u32();
      const kind = String.fromCharCode(r.u8()) === 'O' ? 'O' : 'K';
      return { tag: 'delete', relationOid, old: tuple(r), oldKind: kind };
    }
    default:
      return { tag: 'other' };
  }
}

export function decodeCopyData(chunk: Buffer): CopyMessage {
  const r = new Reader(chunk);
  const tag = String.fromCharCode(r.u8());
  if (tag === 'w') {
    r.u64(); // start of this WAL data
    const walEnd = r.u64();
    r.i64(); // server clock
    return { tag: 'xlog', walEnd, message: decodeLogical(chunk.subarray(r.offset)) };
  }
  if (tag === 'k') {
    const walEnd = r.u64();
    r.i64();
    return { tag: 'keepalive', walEnd, replyRequested: r.u8() === 1 };
  }
  return { tag: 'unknown' };
}

/** A standby status update: everything up to `lsn` is written, flushed and applied. */
export function standbyStatus(lsn: bigint, now = Date.now()): Buffer {
  const buf = Buffer.alloc(34);
  buf.write('r', 0);
  buf.writeBigUInt64BE(lsn, 1);
  buf.writeBigUInt64BE(lsn, 9);
  buf.writeBigUInt64BE(lsn, 17);
  buf.writeBigInt64BE(BigInt(now) * 1000n - PG_EPOCH_MICROS, 25);
  buf.writeUInt8(0, 33);
  return buf;
}
