// The example attachment: what OpenAPI's examples show. Plain data that imports only another example file.
import { WORK_ORDER_EXAMPLE } from '../work-order.example.js';

export const ATTACHMENT_EXAMPLE = {
  id: '7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d3f',
  workOrderId: WORK_ORDER_EXAMPLE.id,
  fileName: 'leak-under-sink.jpg',
  contentType: 'image/jpeg',
  size: 482_113,
  sha256: '9f2c4b6d8e0a1c3e5f7a9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a',
  description: 'The cupboard floor under the kitchen sink, Monday morning',
  downloadUrl:
    'https://api.example.com/v1/attachment-downloads/00000000-0000-4000-8000-000000000001/' +
    '7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d3f?expires=1767225600&signature=3q2-7w',
};
