import AudioCore
import AudioDevice
import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension RunningSession {
    /// How a sitting ended, and whether its record reached the journal.
    public struct Finished: Sendable {
        /// The record, as journaled (or as it would have been).
        public var record: SessionRecord
        /// Why the record could not be appended (it is then recovered from its checkpoint later); `nil` when it was,
        /// or when there is no journal.
        public var journalError: EnsoError?
    }

    /// The journal record as of now (or `end`, on a paced output) with `outcome`.
    ///
    /// Its `end` is on the output's own clock, as its events are: the wall clock for a device, and for an unpaced
    /// file, whose time is its frame count, the start plus the output frames (the frame the sitting ended on once
    /// finished, else the frame rendered). It was the wall clock there too, so a 6 s sitting written in 50 ms
    /// recorded an `end` 50 ms after its `start` beside 6 s sat.
    public func record(outcome: SessionRecord.Outcome, end: Date? = nil) -> SessionRecord {
        let end =
            unpaced ? wallTime(outputFrame: isFinished ? finalOutputFrame : engine.outputFrame) : end ?? wallClock()
        let planned = closingFrame.map { rate.seconds(frames: $0) }
        // A sitting sat in full has sat its plan, to the figure (an until-plan's is no whole millisecond), whether or
        // not its ring has died away (a checkpoint the moment it was heard; a `kill -9` in the ring).
        let sat = outcome == .completed ? planned : nil
        return SessionRecord(
            id: id, start: ProtocolTime.format(startDate), end: ProtocolTime.format(end),
            plannedSeconds: planned, satSeconds: sat ?? SessionRecord.seconds(units: SessionRecord.units(satSeconds)),
            cyclesCompleted: cyclesCompleted, outcome: outcome, bell: plan.bell, theme: plan.ambient, themes: themes)
    }

    /// The closing bell has been heard (``reachedClosingBell``) and no stop came before it: the sitting was sat in
    /// full, whatever ends it now (a stop, a shutdown, the end of input, a `kill -9` during the ring).
    public var satInFull: Bool { reachedClosingBell && !stopRequested }

    /// How the sitting ends if it ends now: `interrupted` after the output failed, `stopped` after a stop before
    /// the closing bell, `completed` once its closing bell is heard (a stop, a shutdown or the end of input while
    /// that bell rings ends a sitting that was sat in full) or the engine played it to its end, else `stopped` (a
    /// shutdown between the closing bell's rendering and its sound: the device drops it unheard).
    public var outcome: SessionRecord.Outcome {
        if deviceFailed { return .interrupted }
        if stopRequested { return .stopped }
        return ended || reachedClosingBell ? .completed : .stopped
    }

    /// Ends the sitting with `outcome` (``outcome`` when `nil`): stops the output, cuts an unpaced file on the frame
    /// the sitting ended on, and appends the record to the journal, removing its checkpoint.
    ///
    /// A device plays out what it holds when the engine has rendered the session's end (the closing ring, or a stop's
    /// fade): dropped, the fade was never heard, and a stop with a short fade (a plan's `fadeOut` of 0: the 20 ms
    /// de-click) cut the sound where the device was, up to a buffer (170 ms) before the stop. Ended before that (a
    /// shutdown, the end of input) or by a failed device, it stops at once, and a sitting not sat in full ends its sat
    /// time on the frame heard then (``heardEnd``), not on the frames rendered ahead that nobody heard.
    ///
    /// A journal that cannot be written is a warning giving the record (``takeWarnings()``) and
    /// ``Finished/journalError``: the journal holds the record for its next write and the checkpoint stays, so the
    /// sitting is recovered as `interrupted` on the next start if this process ends first.
    public func finish(_ outcome: SessionRecord.Outcome? = nil) -> Finished {
        noteClosingHeard()
        let outcome = outcome ?? self.outcome
        isFinished = true
        if unpaced, let file = output as? FileOutput {
            // The render thread runs ahead of the session's end (writing silence) until stopped: the file is cut
            // on the frame the session ended on, so it ends with the session. A stopped sitting's file is kept too.
            file.stop(drain: outcome != .interrupted)
            if outcome != .interrupted, file.failure == nil { cut(file, atFrame: finalOutputFrame) }
        } else {
            let playsOut = ended && !deviceFailed
            // A sitting that reached its closing bell was sat in full (its sat time is its planned time), heard or not.
            if !playsOut && outcome != .completed { heardEnd = heardSessionFrame }
            output.stop(drain: playsOut)
        }
        let record = record(outcome: outcome)
        // The record replaces the checkpoint: a checkpoint still on its way must not land after it.
        checkpointWriter?.drain()
        var journalError: EnsoError?
        do {
            try journal?.finish(record)
        } catch {
            // The record goes into the log too: it is held for the next write, but the process may end first.
            warnings.append(
                "cannot journal session \(id): \(error.message); its record, for \(journal?.path ?? "the journal") if "
                    + "it is never written: \(SessionJournal.encodeLine(record))")
            journalError = error
        }
        return Finished(record: record, journalError: journalError)
    }

    /// A checkpoint now for a pause or resume, or at the next poll after ``minimumCheckpointSpacing``.
    func checkpointSoon() {
        if wallClock().timeIntervalSince(lastCheckpoint) >= Self.minimumCheckpointSpacing {
            checkpoint()
        } else {
            checkpointDue = true
        }
    }

    /// Saves the record so far as the sitting's checkpoint, recovered if the process dies: as `interrupted`, or as
    /// `completed` once the closing bell has rung without a stop before it (``satInFull``); through
    /// ``checkpointWriter`` when there is one and `now` is false, else here.
    func checkpoint(now: Bool = false) {
        checkpointDue = false
        lastCheckpoint = wallClock()
        guard let journal, !isFinished else { return }
        if satInFull { closingCheckpointed = true }
        let record = record(outcome: satInFull ? .completed : .interrupted, end: lastCheckpoint)
        if let checkpointWriter, !now {
            checkpointWriter.write(record, to: journal)
            return
        }
        do { try journal.checkpoint(record) } catch {
            warnings.append("cannot checkpoint session \(id): \(error.message)")
        }
    }

    /// Truncates a completed file output to `frame` frames (and fsyncs it); a failure is a warning.
    private func cut(_ file: FileOutput, atFrame frame: FramePosition) {
        let bytes = off_t(max(0, frame)) * off_t(file.format.channels.count * file.format.sampleFormat.bytesPerSample)
        let fd = open(file.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            warnings.append("cannot cut '\(file.path)' at the session's end: \(String(cString: strerror(errno)))")
            return
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, st.st_size > bytes, ftruncate(fd, bytes) != 0 || fsync(fd) != 0 {
            warnings.append("cannot cut '\(file.path)' at the session's end: \(String(cString: strerror(errno)))")
        }
    }
}
