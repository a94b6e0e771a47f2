import { strict as assert } from 'node:assert';
import { notCheckedDiagnosis } from '../../../src/features/doctor/chat/restrictedCheck';
import { renderDoctorReport, verdictOf } from '../../../src/features/doctor/chat/doctorReport';

const CONTEXT = {
  generatedAt: new Date('2026-11-26T07:00:00.000Z'),
  platform: 'linux-x64',
  hostNode: 'v20.0.0',
};

describe('agent doctor in Restricted Mode', () => {
  const agent = { id: 'mine', label: 'My agent', command: 'my-agent', args: ['--acp'], env: {} };

  it('marks an agent not checked, with the way to trust the workspace', () => {
    const diagnosis = notCheckedDiagnosis(agent, 'configured');
    assert.equal(verdictOf(diagnosis), 'not checked');
    assert.equal(diagnosis.foundAt, undefined);
    assert.match(diagnosis.problems[0]?.fix ?? '', /workbench\.trust\.manage/);
  });

  it('starts the report with the trust state and lists what the workspace defines, unrun', () => {
    const report = renderDoctorReport([notCheckedDiagnosis(agent, 'configured')], {
      ...CONTEXT,
      trusted: false,
      workspaceAgents: [{ label: 'Evil `x`', command: 'node -e "write(marker)"' }],
    });
    const firstParagraph = report.split('\n\n')[2] ?? '';
    assert.match(firstParagraph, /^\*\*Workspace trust: Restricted Mode\.\*\* This workspace is not trusted/);
    assert.match(report, /\| My agent \| – not checked \| — \| — \| — \|/);
    assert.match(report, /- \*\*Status:\*\* not checked: this workspace is not trusted/);
    assert.match(report, /- Evil \\`x\\`: `node -e "write\(marker\)"`/);
    assert.doesNotMatch(report, /\*\*Found:\*\*/);
  });

  it('says so when the workspace is trusted', () => {
    const report = renderDoctorReport([], { ...CONTEXT, trusted: true });
    assert.match(report.split('\n\n')[2] ?? '', /^\*\*Workspace trust:\*\* trusted/);
  });
});
