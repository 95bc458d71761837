import type { CampaignWorker } from '../campaign-worker';
import type { ImportWorker } from '../customer-import-worker';
import type { Db } from '../db/client';
import type { PasswordHasher } from '../domain/passwords';
import type { Logger } from '../log';
import type { Mailer } from '../mail';
import type { AppConfig } from '../types';
import type { WebhookSender } from '../webhook-sender';
import type { Guards } from './access';
import type { RequestSample } from './observe';

/**
 * The aggregate of the app's services (the database, mailer, webhook sender, guards): what `createApp`
 * and each route module are built with. Leaf types (AppConfig, AuthUser, …) live in server/types.ts.
 */
export type AppDeps = {
  db: Db;
  clock: () => Date;
  mailer: Mailer;
  config: AppConfig;
  log?: Logger;
  /** Delivers the webhook outbox; kicked after a change that may have queued a message. */
  webhooks?: WebhookSender;
  /** Applies customer import jobs (issue 27); kicked when an upload is staged. */
  imports?: ImportWorker;
  /** Runs campaigns (issue 35); kicked when one starts. */
  campaigns?: CampaignWorker;
  /** Every answered request (server/metrics.ts counts them); the access log is written either way. */
  onRequest?: (sample: RequestSample) => void;
  /** True once the process is shutting down: /readyz answers 503 so balancers stop sending. */
  stopping?: () => boolean;
};

/** What each route module is built with: the deps plus the app's shared services. */
export type RouteContext = AppDeps & { log: Logger; hasher: PasswordHasher; guards: Guards };
