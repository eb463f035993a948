/** The dora module's public face: all that other modules and the composition root may import from it. */
export { createDoraModule } from './dora.module.js';
export {
  createIctIncidentReminders,
  ictIncidentRemindersJob,
} from './ict-incident-reminders.job.js';
export type { IctIncidentsService } from './ict-incidents.service.js';
