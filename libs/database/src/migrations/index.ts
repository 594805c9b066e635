import { InitialSchema1763750000000 } from './1763750000000-initial-schema.js';
import { WorkOrderCounts1763800000000 } from './1763800000000-work-order-counts.js';
import { ApiKeyRevocationNotify1763850000000 } from './1763850000000-api-key-revocation-notify.js';
import { SafeWrites1764000000000 } from './1764000000000-safe-writes.js';
import { Dashboard1764100000000 } from './1764100000000-dashboard.js';
import { Events1764200000000 } from './1764200000000-events.js';
import { Webhooks1764300000000 } from './1764300000000-webhooks.js';
import { WebhookDeliveryUpdatedAt1764400000000 } from './1764400000000-webhook-delivery-updated-at.js';
import { ExternalRefs1764500000000 } from './1764500000000-external-refs.js';
import { WorkOrderNotes1764510000000 } from './1764510000000-work-order-notes.js';
import { RecordHistory1764520000000 } from './1764520000000-record-history.js';
import { DashboardHardening1795633247294 } from './1795633247294-dashboard-hardening.js';
import { WorkOrderAttachments1795700000000 } from './1795700000000-work-order-attachments.js';
import { Imports1795800000000 } from './1795800000000-imports.js';
import { Sandboxes1795900000000 } from './1795900000000-sandboxes.js';
import { DashboardTestMode1795910000000 } from './1795910000000-dashboard-test-mode.js';

/** Every migration, in order. New migrations are appended here (ESM has no glob loading). */
export const migrations = [
  InitialSchema1763750000000,
  WorkOrderCounts1763800000000,
  ApiKeyRevocationNotify1763850000000,
  SafeWrites1764000000000,
  Dashboard1764100000000,
  Events1764200000000,
  Webhooks1764300000000,
  WebhookDeliveryUpdatedAt1764400000000,
  ExternalRefs1764500000000,
  WorkOrderNotes1764510000000,
  RecordHistory1764520000000,
  DashboardHardening1795633247294,
  WorkOrderAttachments1795700000000,
  Imports1795800000000,
  Sandboxes1795900000000,
  DashboardTestMode1795910000000,
];
