/** `npm run bench`: every benchmark of the project. Figures are medians; the machine is noisy. */
import { benchBundle } from './bundle.js';
import { benchCli } from './cli.js';
import { benchClientOverhead } from './client-overhead.js';
import { benchGenerate } from './generate.js';
import { benchMcp } from './mcp.js';
import { benchMock } from './mock.js';
import { benchMockScale } from './mock-scale.js';
import { benchPrism } from './prism.js';
import { printFigures, writeResults } from './report.js';
import { benchSearch } from './search.js';

benchCli();
await benchGenerate();
await benchMock();
await benchMockScale();
await benchPrism();
await benchSearch();
await benchBundle();
await benchClientOverhead();
await benchMcp();
printFigures();
console.log(`\nresults: ${writeResults()}`);
