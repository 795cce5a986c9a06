import Dispatch

/// The lifecycle of an `EventLoop` and the tasks queued on it, as a value: each event (a task
/// queued, a turn taking its tasks, a stop asked, the thread ending) changes the state and says
/// what the loop must do. It performs no I/O and runs no task, so every transition is tested in
/// memory; the loop keeps it inside its lock.
struct EventLoopStateMachine {
    typealias Task = @Sendable () -> Void

    enum State {
        /// The thread has not started: tasks wait for it.
        case initial(tasks: [Task])
        /// The thread runs turns. `wakePending`: a wake-up is on its way to the loop, so a task
        /// queued now need not send another.
        case running(tasks: [Task], wakePending: Bool)
        /// A stop was asked: the thread runs the tasks queued so far, then ends; `waiters` are
        /// signalled once it has (and the tasks queued meanwhile have run).
        case stopping(tasks: [Task], wakePending: Bool, waiters: [DispatchSemaphore])
        /// The thread has ended. A task runs on the thread that queues it, one at a time: while
        /// one thread is `draining`, tasks queued by others wait in `tasks` for it to run them.
        case stopped(tasks: [Task], draining: Bool)
    }

    /// What `enqueue` asks of the caller.
    enum EnqueueAction: Equatable {
        /// Nothing: the task waits its turn.
        case none
        /// Wake the loop (it may be blocked in `epoll_wait`).
        case wake
        /// The thread is gone and nobody drains: run the task now, then the ones `nextStoppedTask`
        /// hands out.
        case runOnCaller
    }

    /// What `stop` asks of the caller.
    enum StopAction {
        /// Nothing to wait for (already stopped, or called on the loop, which ends after its
        /// next turn).
        case none
        /// Wait for the waiter to be signalled, after waking the loop if `wake`.
        case wait(wake: Bool)
        /// The thread never started: run the queued tasks now (`drain`), then those
        /// `nextStoppedTask` hands out.
        case drain([Task])
    }

    private(set) var state: State = .initial(tasks: [])

    /// Swapped in while a case's array is changed, so that the array is not copied.
    private static var placeholder: State { .stopped(tasks: [], draining: true) }

    /// The thread starts; false when it must not (started or stopped already).
    mutating func start() -> Bool {
        guard case .initial(let tasks) = state else { return false }
        state = .running(tasks: tasks, wakePending: false)
        return true
    }

    /// A task is queued (`onLoop`: by the loop's own thread, which needs no wake-up).
    mutating func enqueue(_ task: @escaping Task, onLoop: Bool) -> EnqueueAction {
        switch state {
        case .initial(var tasks):
            state = Self.placeholder
            tasks.append(task)
            state = .initial(tasks: tasks)
            return .none
        case .running(var tasks, let wakePending):
            state = Self.placeholder
            tasks.append(task)
            let wake = !wakePending && !onLoop
            state = .running(tasks: tasks, wakePending: wakePending || wake)
            return wake ? .wake : .none
        case .stopping(var tasks, let wakePending, let waiters):
            state = Self.placeholder
            tasks.append(task)
            let wake = !wakePending && !onLoop
            state = .stopping(tasks: tasks, wakePending: wakePending || wake, waiters: waiters)
            return wake ? .wake : .none
        case .stopped(var tasks, let draining):
            guard draining else {
                state = .stopped(tasks: tasks, draining: true)
                return .runOnCaller
            }
            state = Self.placeholder
            tasks.append(task)
            state = .stopped(tasks: tasks, draining: true)
            return .none
        }
    }

    /// A turn takes the queued tasks (swapped with `batch`, an empty array whose capacity is
    /// reused) and clears the pending wake-up; returns whether the thread ends after running them.
    mutating func takeTasks(swappingWith batch: inout [Task]) -> Bool {
        switch state {
        case .running(var tasks, _):
            state = Self.placeholder
            swap(&tasks, &batch)
            state = .running(tasks: tasks, wakePending: false)
            return false
        case .stopping(var tasks, _, let waiters):
            state = Self.placeholder
            swap(&tasks, &batch)
            state = .stopping(tasks: tasks, wakePending: false, waiters: waiters)
            return true
        case .initial, .stopped:
            return true  // not a running thread's call: nothing to take
        }
    }

    /// Whether tasks wait (for tests and diagnostics: the loop itself learns of them from its
    /// wake-up, or from its own `enqueue`, without taking the lock).
    var hasQueuedTasks: Bool {
        switch state {
        case .initial(let tasks), .running(let tasks, _), .stopping(let tasks, _, _), .stopped(let tasks, _): !tasks.isEmpty
        }
    }

    /// A stop is asked (`waiter`: signalled once the thread has ended; unused on the loop).
    mutating func stop(onLoop: Bool, waiter: DispatchSemaphore) -> StopAction {
        switch state {
        case .initial(let tasks):
            state = .stopped(tasks: [], draining: true)
            return .drain(tasks)
        case .running(let tasks, let wakePending):
            if onLoop {
                state = .stopping(tasks: tasks, wakePending: wakePending, waiters: [])
                return .none
            }
            state = .stopping(tasks: tasks, wakePending: true, waiters: [waiter])
            return .wait(wake: !wakePending)
        case .stopping(let tasks, let wakePending, var waiters):
            if onLoop { return .none }
            waiters.append(waiter)
            state = .stopping(tasks: tasks, wakePending: wakePending, waiters: waiters)
            return .wait(wake: false)
        case .stopped:
            return .none
        }
    }

    /// The thread has left its loop: it runs `remaining` (and what `nextStoppedTask` hands
    /// out), then signals `waiters`.
    mutating func threadExited() -> (remaining: [Task], waiters: [DispatchSemaphore]) {
        guard case .stopping(let tasks, _, let waiters) = state else { return ([], []) }
        state = .stopped(tasks: [], draining: true)
        return (tasks, waiters)
    }

    /// The drainer of a stopped loop asks for the next task; nil ends its draining.
    mutating func nextStoppedTask() -> Task? {
        guard case .stopped(var tasks, true) = state else { return nil }
        guard !tasks.isEmpty else {
            state = .stopped(tasks: [], draining: false)
            return nil
        }
        state = Self.placeholder
        let next = tasks.removeFirst()
        state = .stopped(tasks: tasks, draining: true)
        return next
    }
}
