// libopusfile as Swift sees it. Everything the plugin uses (functions, the OP_* codes, the
// OpusTags/OpusPictureTag structs) imports directly; no wrappers are needed.
#include <opusfile.h>
