/// Where each SMPTE channel (FL FR FC LFE BL BR SL SR; BC for 6.1) sits in the Vorbis channel
/// order (Vorbis I §4.3.9, which Opus mapping family 1 and libopusfile follow too), by channel
/// count. Counts whose orders agree (1, 2, 4) are absent.
public let vorbisToSMPTE: [Int: [Int]] = [
    3: [0, 2, 1],                    // L C R
    5: [0, 2, 1, 3, 4],              // FL C FR RL RR
    6: [0, 2, 1, 5, 3, 4],           // FL C FR RL RR LFE
    7: [0, 2, 1, 6, 5, 3, 4],        // FL C FR SL SR RC LFE
    8: [0, 2, 1, 7, 5, 6, 3, 4],     // FL C FR SL SR RL RR LFE
]
