import { create } from 'zustand';
import { Icon, type IconName } from './reviews/icons';
import './reviews/reviews.css';

/** The views of the side panel, chosen on the activity rail (desktop-look.md "Frame"). */
export type Activity = 'pages' | 'search' | 'changes' | 'reviews' | 'problems' | 'builds';

/** The activity rail's state: which view the side panel shows. */
export const useActivity = create<{ activity: Activity; setActivity(a: Activity): void }>()((set) => ({
  activity: 'pages',
  setActivity: (activity) => set({ activity }),
}));

const ITEMS: { id: Activity; label: string; icon: IconName }[] = [
  { id: 'pages', label: 'Pages', icon: 'pages' },
  { id: 'search', label: 'Search', icon: 'search' },
  { id: 'changes', label: 'Changes', icon: 'changes' },
  { id: 'reviews', label: 'Reviews', icon: 'reviews' },
  { id: 'problems', label: 'Problems', icon: 'problems' },
  { id: 'builds', label: 'Builds', icon: 'builds' },
];

/**
 * The activity rail on the left of the workspace: a toolbar named "Activity" of icon buttons named
 * "Pages", "Search", "Changes", "Reviews", "Problems" and "Builds" (tooltips give the same words; the chosen one is pressed).
 * `badges` adds a small count to an item (the reviews with news for me on "Reviews"); `notes` gives that count in words as the
 * item's accessible description (`aria-describedby`, e.g. "2 reviews have news for you"), so the item's name stays its label.
 */
export function ActivityRail({ badges = {}, notes = {} }: { badges?: Partial<Record<Activity, number>>; notes?: Partial<Record<Activity, string>> }) {
  const { activity, setActivity } = useActivity();
  return (
    <div role="toolbar" aria-label="Activity" aria-orientation="vertical" className="activity-rail">
      {ITEMS.map((item) => (
        <button
          key={item.id}
          type="button"
          aria-label={item.label}
          title={badges[item.id] && notes[item.id] ? `${item.label}: ${notes[item.id]}` : item.label}
          aria-pressed={activity === item.id}
          aria-describedby={badges[item.id] && notes[item.id] ? `rail-note-${item.id}` : undefined}
          onClick={() => setActivity(item.id)}
        >
          <Icon name={item.icon} size={20} />
          {badges[item.id] ? (
            <span className="rail-badge" aria-hidden="true">
              {badges[item.id]}
            </span>
          ) : null}
          {badges[item.id] && notes[item.id] ? (
            <span id={`rail-note-${item.id}`} className="visually-hidden">
              {notes[item.id]}
            </span>
          ) : null}
        </button>
      ))}
    </div>
  );
}
