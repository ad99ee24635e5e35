import { expect } from '@open-wc/testing';
import { findPackagePathProblem, packagePathCollisionKey } from '@plughost/host-sdk/core';

// The same path rule must hold in the browser, where the install dialog and debug harness use it.
describe('package paths in the browser', () => {
  it('refuses traversal and backslashes', () => {
    expect(findPackagePathProblem('dist/../../etc/passwd')).to.equal('traversal');
    expect(findPackagePathProblem('dist\\evil.js')).to.equal('backslash');
    expect(findPackagePathProblem('dist/index.html')).to.equal(null);
  });

  it('folds Unicode normalization like Node does', () => {
    expect(packagePathCollisionKey('CAF\u00c9')).to.equal(packagePathCollisionKey('cafe\u0301'));
  });
});
