/**
 * Labels as chips: the labels page, the task panel and board cards show them alike. A card shows the
 * first `max` and says how many more there are ("+2"), naming them for assistive technology.
 */
import { CHIP_CLASSES, isLabelColour } from '../styles/label-colours.ts';

export interface ChipLabel {
  id: string;
  name: string;
  /** One of LABEL_COLOURS; anything else (a colour retired since) shows as gray. */
  color: string;
}

const CHIP = 'inline-flex max-w-full items-center truncate rounded-full px-2 py-0.5 text-xs font-medium';

export function LabelChip({ label }: { label: ChipLabel }) {
  const colour = isLabelColour(label.color) ? label.color : 'gray';
  return <span className={`${CHIP} ${CHIP_CLASSES[colour]}`}>{label.name}</span>;
}

/** The labels in a row: the first `max` (a card's three unless told), and "+N" for the rest. */
export function LabelChips({ labels, max = 3 }: { labels: ChipLabel[]; max?: number }) {
  if (labels.length === 0) return null;
  const shown = labels.slice(0, max);
  const hidden = labels.slice(shown.length);
  return (
    <ul aria-label="Labels" className="flex min-w-0 flex-wrap gap-1">
      {shown.map((label) => (
        <li key={label.id} className="min-w-0">
          <LabelChip label={label} />
        </li>
      ))}
      {hidden.length > 0 ? (
        <li className={`${CHIP} bg-slate-100 text-slate-700`} title={hidden.map((l) => l.name).join(', ')}>
          <span aria-hidden="true">+{hidden.length}</span>
          <span className="sr-only">
            {hidden.length} more: {hidden.map((l) => l.name).join(', ')}
          </span>
        </li>
      ) : null}
    </ul>
  );
}
