export { HistoryModule } from './history.module.js';
export { historySubjectsOf, type HistorySubject } from './history-subjects.js';
