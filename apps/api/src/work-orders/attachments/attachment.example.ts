// The example attachment: what OpenAPI's examples show, and the demo team's attachment under the same id (its
// bytes are EXAMPLE_QUOTE_PDF; a unit test checks that size and sha256 are theirs). Plain data that imports only
// another example file.
import { WORK_ORDER_EXAMPLE } from '../work-order.example.js';

export const ATTACHMENT_EXAMPLE = {
  id: '7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d3f',
  workOrderId: WORK_ORDER_EXAMPLE.id,
  fileName: 'quote-q-2041.pdf',
  contentType: 'application/pdf',
  size: 745,
  sha256: '095cef6511907cccb074e55a097e4962e004178cfbf55676407ec4e08753eae9',
  description: 'Drip Ltd’s quote for replacing the trap under the sink',
  downloadUrl:
    'https://api.example.com/v1/attachment-downloads/00000000-0000-4000-8000-000000000001/' +
    '7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d3f?expires=1767225600&signature=3q2-7w',
  /** What the demo team's example is created from (`AttachmentExamples`). */
  body: {
    fileName: 'quote-q-2041.pdf',
    description: 'Drip Ltd’s quote for replacing the trap under the sink',
  },
};
