// libvorbisfile as Swift sees it. OV_CALLBACKS_* are static data in the header the plugin does
// not use (it opens by path with ov_fopen); everything else imports directly.
#include <vorbis/vorbisfile.h>
