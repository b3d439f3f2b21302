// Process entry for `npm start` (`node dist/src/main.js web`): the CLI owns argv and the environment.
import './cli/bin.js';
