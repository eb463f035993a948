import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import { useUploadProgress } from '../imports/useUploadProgress';

/** What the wizard shows of a payroll upload while it runs. */
export interface PayrollProgress {
  id: string;
  status: string;
  fileBytes: number;
  rowsRead: number;
  /** Who started it, as the list says; an upload read by id is already known to be ours. */
  userId: string | null;
}

/**
 * Follows an employer's payroll upload while the browser still sends it, as a scheme's import is
 * followed (useUploadProgress): the service records the upload before the file arrives, so it is
 * the newest running upload of this employer by this user not listed before, then read by id.
 */
export function usePayrollProgress({
  employerId,
  userId,
  earlierIds,
  active,
}: {
  employerId: string;
  userId: string;
  earlierIds: ReadonlySet<string> | null;
  active: boolean;
}): PayrollProgress | null {
  return useUploadProgress<PayrollProgress>({
    list: async () =>
      (
        await api(apiRoutes.autoEnrolment.payrollUploads, {
          params: { id: employerId },
          query: { limit: 10 },
        })
      ).items.map((item) => ({ ...item, userId: item.uploadedBy.userId })),
    read: async (id) => ({
      ...(await api(apiRoutes.autoEnrolment.payrollUpload, {
        params: { id: employerId, importId: id },
      })),
      userId: null,
    }),
    ours: (item) => item.userId === userId,
    earlierIds,
    active,
  });
}
