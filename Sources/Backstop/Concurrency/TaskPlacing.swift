/// A transport whose answers wake a call's tasks on threads of its own, where those tasks go on
/// running (see ``TaskPlacement``).
package protocol TaskPlacing {
    /// Where a call's attempt tasks run.
    var taskPlacement: TaskPlacement { get }
}
