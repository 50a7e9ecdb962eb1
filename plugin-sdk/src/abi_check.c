/* Compile-time checks of the published ABI. Any change that moves a field of a shipped struct
 * fails here: such a change needs a new ABP_ABI_MAJOR (see the history in plugin.h).
 * This file also makes SwiftPM rebuild dependents when plugin.h changes. */
#include <stddef.h>
#include "abplayer/plugin.h"

#define ABP_ASSERT_OFFSET(type, field, offset) \
    _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved: ABI break")

#if defined(__x86_64__) || defined(__aarch64__)
ABP_ASSERT_OFFSET(abp_plugin, struct_size, 0);
ABP_ASSERT_OFFSET(abp_plugin, abi_major, 4);
ABP_ASSERT_OFFSET(abp_plugin, abi_minor, 6);
ABP_ASSERT_OFFSET(abp_plugin, kind, 8);
ABP_ASSERT_OFFSET(abp_plugin, id, 16);
ABP_ASSERT_OFFSET(abp_plugin, decoder, 88);
ABP_ASSERT_OFFSET(abp_plugin, sink, 96);
ABP_ASSERT_OFFSET(abp_plugin, argument_option, 104);
_Static_assert(sizeof(abp_plugin) == 168, "abp_plugin size changed: ABI break");
ABP_ASSERT_OFFSET(abp_host_api, log, 16);
ABP_ASSERT_OFFSET(abp_host_api, cache_dir, 24);
_Static_assert(sizeof(abp_host_api) == 96, "abp_host_api size changed: ABI break");
ABP_ASSERT_OFFSET(abp_decoder_ops, probe, 8);
ABP_ASSERT_OFFSET(abp_decoder_ops, close, 48);
ABP_ASSERT_OFFSET(abp_sink_ops, open, 8);
ABP_ASSERT_OFFSET(abp_sink_ops, close, 72);
ABP_ASSERT_OFFSET(abp_stream_info, total_frames, 16);
ABP_ASSERT_OFFSET(abp_stream_info, seekable, 24);
ABP_ASSERT_OFFSET(abp_stream_info, bits_per_sample, 28);
ABP_ASSERT_OFFSET(abp_stream_info, codec, 32);
_Static_assert(sizeof(abp_stream_info) == 56, "abp_stream_info size changed: ABI break");
ABP_ASSERT_OFFSET(abp_audio_source, pull, 16);
ABP_ASSERT_OFFSET(abp_audio_source, status, 24);
ABP_ASSERT_OFFSET(abp_audio_source, wait, 32);
ABP_ASSERT_OFFSET(abp_metadata_callbacks, picture, 32);
#endif
_Static_assert(ABP_ERR_MOVED == -9, "status codes are append-only");

/* The version this SDK describes, for tools that inspect a build (`nm`). */
const unsigned abp_sdk_abi_version = (ABP_ABI_MAJOR << 16) | ABP_ABI_MINOR;
