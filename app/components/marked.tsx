import type { MarkedPiece } from '~/utils/search-query.ts';

/** Text with a search's matches in <mark>: every piece is rendered as text, never as HTML. */
export function Marked({ pieces }: { pieces: MarkedPiece[] }) {
  return (
    <>
      {pieces.map((piece, i) =>
        piece.marked ? (
          <mark key={i} className="rounded-sm bg-yellow-100 text-inherit">
            {piece.text}
          </mark>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
