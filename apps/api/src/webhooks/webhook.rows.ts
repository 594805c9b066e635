/** A webhook endpoint as the repository reads it (never its secrets). */
export interface WebhookEndpointRow {
  id: string;
  url: string;
  description: string | null;
  types: string[] | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A delivery as the API shows it (never its body). */
export interface DeliveryRow {
  id: string;
  eventId: string;
  type: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}
