import type { Campaign } from '../../../../../contract/campaigns';
import { Badge, type BadgeTone } from '../../../../components/ui/badge';
import { TEXTS } from '../../../../lib/texts';

const TONES: Record<Campaign['state'], BadgeTone> = {
  draft: 'brand',
  awaiting_approval: 'warning',
  running: 'brand',
  done: 'success',
  cancelled: 'warning',
  rejected: 'danger',
  failed: 'danger',
  expired: 'warning',
};

/** A campaign's state as a label ('Waiting for approval'). */
export function CampaignStateBadge({ state }: { state: Campaign['state'] }) {
  return <Badge tone={TONES[state]}>{TEXTS.campaign.states[state]}</Badge>;
}
