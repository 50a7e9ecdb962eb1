import Foundation

extension AudioAnalysis {
    /// Pearson correlation over the common length: 1 for the same shape, -1 for an inverted copy,
    /// about 0 for unrelated signals. 0 when either side is constant (there is no shape to compare).
    public static func correlation(_ a: [Float], _ b: [Float]) -> Double {
        let n = min(a.count, b.count)
        guard n > 1 else { return 0 }
        var sumA = 0.0, sumB = 0.0, sumAA = 0.0, sumBB = 0.0, sumAB = 0.0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in 0..<n {
                    let x = Double(a[i]), y = Double(b[i])
                    sumA += x
                    sumB += y
                    sumAA += x * x
                    sumBB += y * y
                    sumAB += x * y
                }
            }
        }
        return pearson(n: Double(n), sumA: sumA, sumB: sumB, sumAA: sumAA, sumBB: sumBB, sumAB: sumAB)
    }

    /// The lag L in -maxLag...maxLag that maximises the correlation of `a[i + L]` with `b[i]` over
    /// their overlap: how many frames later the same audio appears in `a` than in `b`. So
    /// `bestLag(decoded, original, maxLag: 3000)` is a decoder's leading delay (negative if it
    /// trimmed too much). Feed single channels (see `channel(_:channels:index:)`).
    ///
    /// The cross terms for every lag come from one FFT cross-correlation and the per-overlap means
    /// and variances from prefix sums, so this is O(n log n) rather than O(n · maxLag) — long
    /// windows stay fast in debug builds. Keep `maxLag` well below the lengths: a tiny overlap
    /// can correlate well by chance.
    public static func bestLag(_ a: [Float], _ b: [Float], maxLag: Int) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        let cross = crossCorrelation(a, b)
        let prefixA = prefixSums(a), prefixB = prefixSums(b)
        var best = (lag: 0, correlation: -Double.infinity)
        for lag in max(-maxLag, -(b.count - 2))...min(maxLag, a.count - 2) {
            let lowB = max(0, -lag), highB = min(b.count, a.count - lag)  // b[lowB..<highB] meets a[lowB+lag..<highB+lag]
            let n = highB - lowB
            guard n > 1 else { continue }
            let r = pearson(
                n: Double(n),
                sumA: prefixA.sum[highB + lag] - prefixA.sum[lowB + lag],
                sumB: prefixB.sum[highB] - prefixB.sum[lowB],
                sumAA: prefixA.squares[highB + lag] - prefixA.squares[lowB + lag],
                sumBB: prefixB.squares[highB] - prefixB.squares[lowB],
                sumAB: cross(lag)
            )
            if r > best.correlation { best = (lag, r) }
        }
        return best.lag
    }

    /// Returns Σ a[i + lag]·b[i] for any lag, from IFFT(FFT(a) · conj(FFT(b))) with enough zero
    /// padding that negative lags (stored at the end) do not wrap onto positive ones.
    private static func crossCorrelation(_ a: [Float], _ b: [Float]) -> (Int) -> Double {
        let size = FFT.size(atLeast: a.count + b.count)
        let fft = FFT(size: size)
        var realA = padded(a, to: size), realB = padded(b, to: size)
        var imaginaryA = [Double](repeating: 0, count: size), imaginaryB = imaginaryA
        fft.forward(real: &realA, imaginary: &imaginaryA)
        fft.forward(real: &realB, imaginary: &imaginaryB)
        // A · conj(B), in place in A; raw pointers for the same debug-build reason as in FFT.
        realA.withUnsafeMutableBufferPointer { ra in
            imaginaryA.withUnsafeMutableBufferPointer { ia in
                realB.withUnsafeBufferPointer { rb in
                    imaginaryB.withUnsafeBufferPointer { ib in
                        let (ra, ia, rb, ib) = (ra.baseAddress!, ia.baseAddress!, rb.baseAddress!, ib.baseAddress!)
                        for k in 0..<size {
                            let (ar, ai, br, bi) = (ra[k], ia[k], rb[k], -ib[k])
                            ra[k] = ar * br - ai * bi
                            ia[k] = ar * bi + ai * br
                        }
                    }
                }
            }
        }
        fft.inverse(real: &realA, imaginary: &imaginaryA)
        let result = realA
        return { lag in result[lag >= 0 ? lag : size + lag] }
    }

    private static func padded(_ values: [Float], to size: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: size) { buffer, count in
            values.withUnsafeBufferPointer { values in
                let (out, source) = (buffer.baseAddress!, values.baseAddress!)
                for i in 0..<values.count { out[i] = Double(source[i]) }
                for i in values.count..<size { out[i] = 0 }
            }
            count = size
        }
    }

    private static func prefixSums(_ values: [Float]) -> (sum: [Double], squares: [Double]) {
        var sum = [Double](repeating: 0, count: values.count + 1), squares = sum
        sum.withUnsafeMutableBufferPointer { sum in
            squares.withUnsafeMutableBufferPointer { squares in
                values.withUnsafeBufferPointer { values in
                    let count = values.count
                    let (sum, squares, values) = (sum.baseAddress!, squares.baseAddress!, values.baseAddress!)
                    for i in 0..<count {
                        let value = Double(values[i])
                        sum[i + 1] = sum[i] + value
                        squares[i + 1] = squares[i] + value * value
                    }
                }
            }
        }
        return (sum, squares)
    }

    private static func pearson(n: Double, sumA: Double, sumB: Double, sumAA: Double, sumBB: Double, sumAB: Double) -> Double {
        let varianceA = n * sumAA - sumA * sumA, varianceB = n * sumBB - sumB * sumB
        guard varianceA > 0, varianceB > 0 else { return 0 }
        // Clamped: rounding can land a perfect match a hair outside -1...1.
        return min(1, max(-1, (n * sumAB - sumA * sumB) / (varianceA * varianceB).squareRoot()))
    }
}
