import ABPluginABI
import PlayerCore

/// The one place where the C ABI's status codes become Swift errors.
extension AudioError.Kind {
    init(_ status: abp_status) {
        self = switch status {
        case ABP_ERR_IO: .io
        case ABP_ERR_FORMAT: .format
        case ABP_ERR_UNSUPPORTED: .unsupported
        case ABP_ERR_NOMEM: .outOfMemory
        case ABP_ERR_SEEK: .seek
        case ABP_ERR_INVALID: .invalidArgument
        case ABP_ERR_DEVICE: .device
        default: .internalError
        }
    }
}

extension AudioError {
    init(status: abp_status, subject: String, message: String) {
        let reason = message.isEmpty ? "failed (\(AudioError.Kind(status)), code \(status.rawValue))" : message
        self.init(AudioError.Kind(status), subject: subject, reason: reason)
    }
}

/// Calls a C function that reports failure through a message buffer.
func withErrorBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> T) -> (T, String) {
    var buffer = [CChar](repeating: 0, count: 512)
    let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    let length = buffer.firstIndex(of: 0) ?? buffer.count
    return (result, String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
}
