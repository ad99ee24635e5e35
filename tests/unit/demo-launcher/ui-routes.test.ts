import { describe, expect, it } from 'vitest';
import { parseRoute } from '../../../demo-launcher/src/ui/routes.js';

describe('the demo page routes', () => {
  it('reads the launcher pages, an instance and a plugin page', () => {
    expect(parseRoute('/')).toEqual({ page: 'home' });
    expect(parseRoute('/settings?x=1')).toEqual({ page: 'settings' });
    expect(parseRoute('/instances/survival%201.20')).toEqual({ page: 'instance', instanceId: 'survival 1.20' });
    expect(parseRoute('/plugins/com.example.hello/about.html')).toEqual({ page: 'plugin', pluginId: 'com.example.hello', path: 'about.html' });
  });

  it('answers "not found" for a damaged percent-encoding instead of throwing', () => {
    expect(parseRoute('/instances/%E0%A4%A')).toEqual({ page: 'not-found', route: '/instances/%E0%A4%A' });
    expect(parseRoute('/plugins/%E0%A4%A')).toEqual({ page: 'not-found', route: '/plugins/%E0%A4%A' });
  });
});
