/** `npm run bench`: every benchmark of the project. Figures are medians; the machine is noisy. */
import { benchGenerate } from './generate.js';

benchGenerate();
