import { describe, expect, it } from 'vitest';
import { copyReport } from './payroll-copy';

/**
 * "Copy Sep 2026" on the payroll grid answered a month with nothing in it with a green "Nothing to
 * copy": a success is said only when amounts were copied.
 */
describe('what copying last month’s amounts tells the person', () => {
  it('is a success only when amounts were copied', () => {
    expect(copyReport(4, 6, '2026-09')).toEqual({
      tone: 'success',
      message: '4 amounts copied from Sep 2026: check them, then save.',
    });
  });

  it('says, neutrally, that the month before has nothing recorded', () => {
    expect(copyReport(0, 0, '2026-09')).toEqual({
      tone: 'info',
      message: 'Sep 2026 has no amounts recorded, so there is nothing to copy.',
    });
  });

  it('says, neutrally, that nothing fitted a cell still empty', () => {
    expect(copyReport(0, 3, '2026-09').tone).toBe('info');
    expect(copyReport(0, 3, '2026-09').message).toMatch(/^Sep 2026 has no amount for a cell/);
  });
});
