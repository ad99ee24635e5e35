import '@plughost/web-components/define';
import { LauncherApp } from './launcher-app.js';

if (!customElements.get('launcher-app')) customElements.define('launcher-app', LauncherApp);
