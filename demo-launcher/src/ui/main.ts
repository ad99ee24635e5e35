import './launcher-app.js';
