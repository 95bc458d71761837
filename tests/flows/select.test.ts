import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseOnly, reach, selectWalks } from './select';

const machines = [
  { stem: 'guided-redemption', name: 'guidedRedemption' },
  { stem: 'issue-reward', name: 'issueReward' },
  { stem: 'otp', name: 'otp' },
];

describe('FLOWS_ONLY', () => {
  it('takes the names the report prints and the file names, case aside', () => {
    expect(selectWalks(parseOnly('guidedRedemption'), machines).map((m) => m.stem)).toEqual([
      'guided-redemption',
    ]);
    expect(selectWalks(parseOnly('issue-reward, OTP'), machines).map((m) => m.name)).toEqual([
      'issueReward',
      'otp',
    ]);
    expect(selectWalks(parseOnly(''), machines)).toHaveLength(3);
  });

  it('fails on a name it does not know, listing the machines', () => {
    expect(() => selectWalks(parseOnly('guidedRedemption,redeemm'), machines)).toThrow(
      'FLOWS_ONLY names "redeemm", which match no machine; the machines are: guidedRedemption, issueReward, otp',
    );
  });
});

describe('a server that does not answer', () => {
  it('is named with its URL and what to check', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    await expect(
      reach('server', url, 'Is FLOWS_BASE_URL right and the server started?', () =>
        fetch(`${url}/api/v1/health`),
      ),
    ).rejects.toThrow(
      `The server at ${url} did not answer (ECONNREFUSED). Is FLOWS_BASE_URL right and the server started?`,
    );
  });

  it('passes an HTTP refusal through as it is', async () => {
    await expect(
      reach('server', 'http://x', 'hint', async () => {
        throw new Error('GET /health: 503');
      }),
    ).rejects.toThrow('GET /health: 503');
  });
});
