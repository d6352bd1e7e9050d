#!/bin/sh
# End to end: the story of `make demo` (tools/demo) as TAP. An attacker's
# embedded bare repository is rejected by a strict host, reported on clone,
# contained in the victim's clone and trusted on request. BAREGUARD_GIT
# chooses the git under test (make deb-test points it at the package).
# The story is the default build's: containment under
# safe.bareRepository=all, not the refusal of a Git 3.0 build.
unset WITH_BREAKING_CHANGES
exec "$(dirname "$0")/../tools/demo" --tap
