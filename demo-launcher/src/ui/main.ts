// First: takes the token from the page and deletes the global before anything else runs.
import './boot.js';
import '@plughost/web-components/define';
import { LauncherApp } from './launcher-app.js';

if (!customElements.get('launcher-app')) customElements.define('launcher-app', LauncherApp);
