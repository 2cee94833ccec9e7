// The JSON Schemas published in schema/ (a config's or baseline's `$schema` points at them) are the ones the CLI validates with.
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { baselineSchema } from './baseline.js';
import { configSchema } from './config.js';

const published = [
  ['config.schema.json', configSchema],
  ['baseline.schema.json', baselineSchema],
] as const;

describe('the published schemas', () => {
  it.each(published)('schema/%s is the schema the CLI validates with', async (file, schema) => {
    const url = new URL(`../../schema/${file}`, import.meta.url);
    const text = `${JSON.stringify(schema, null, 2)}\n`;
    // UPDATE_SCHEMAS=1 rewrites them after a change to the schema in src/gate.
    if (process.env.UPDATE_SCHEMAS) await writeFile(url, text);
    expect(
      JSON.parse(await readFile(url, 'utf8')),
      `run UPDATE_SCHEMAS=1 vitest run ${import.meta.filename}, then biome check --write`,
    ).toEqual(JSON.parse(text));
  });
});
