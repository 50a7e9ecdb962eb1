// libfaad2 (2.10) as Swift sees it. Debian 12 ships no pkg-config file for it, hence the plain
// `link "faad"` in the modulemap.
#include <neaacdec.h>
