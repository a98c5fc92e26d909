/** A card's checklist progress, "2/5": a check mark drawn by CSS (`.count.checklist`, app/tailwind.css). */
export function ChecklistProgress({ done, total }: { done: number; total: number }) {
  return (
    <span
      role="img"
      className="count checklist"
      data-done={done === total || undefined}
      aria-label={`Checklist: ${done} of ${total} done`}
    >
      {done}/{total}
    </span>
  );
}
