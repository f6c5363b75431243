import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, BrowserType, Page } from 'playwright-core';

/** Debian's Chromium, driven through playwright-core (which downloads no browser of its own). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The `skip` of a describe that needs Chromium: why, where it is not installed. */
export const CHROMIUM_SKIP = existsSync(CHROMIUM)
  ? undefined
  : `SKIPPED: ${CHROMIUM} not found: install Debian's chromium (bash .ci/run does), or set CHROMIUM_PATH`;

/** Headless, no sandbox (CI runs as root), no GPU, and nothing reaching out to Google's services mid-test. */
const QUIET_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type LaunchOptions = NonNullable<Parameters<BrowserType['launchPersistentContext']>[1]>;

export interface Chromium {
  context: BrowserContext;
  /** The window Chromium opened with. */
  page: Page;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/**
 * Starts headless Chromium on a profile of its own in the temp dir, with `options` (viewport, geolocation,
 * other `args`…) over the quiet defaults.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Chromium> {
  const { chromium } = await import('playwright-core');
  const userDataDir = await mkdtemp(join(tmpdir(), 'whereabouts-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: QUIET_ARGS,
      timeout: 30_000,
      ...options,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
}
