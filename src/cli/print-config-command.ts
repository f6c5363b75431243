import { type Config, maskedConfig } from '../config.js';

export async function printConfigCommand(config: Config): Promise<number> {
  process.stdout.write(`${JSON.stringify(maskedConfig(config), null, 2)}\n`);
  return 0;
}
