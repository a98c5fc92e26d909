import type { WebSocketLikeConstructor } from '@supabase/realtime-js';
import WebSocket from 'ws';

// Node 20 has no global WebSocket, and supabase-js 2.119 throws without one; it takes the `ws`
// package as its realtime transport. ws implements the same interface, but its typings (Node events
// and buffers) differ from the DOM's that realtime-js declares, hence this one conversion.
export const NodeWebSocket = WebSocket as unknown as WebSocketLikeConstructor;
