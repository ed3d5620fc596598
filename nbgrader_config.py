# nbgrader configuration for the retrieval workshop (a course directory rooted here).
#
# solutions/<assignment>/<assignment>.ipynb are nbgrader's source notebooks and
# notebooks/<assignment>/<assignment>.ipynb the released student notebooks.
# Regenerate the student notebooks with `make release` (workshop_lib.release),
# which also writes the nbgrader cell metadata from the `# TODO n` /
# `# CHECK n (p points)` / `# SETUP` markers. Grade a folder of submissions
# with `workshop grade <folder>` (workshop_lib.grading), which loads this file
# too, so settings changed here apply to both. Nothing here is a secret.
c = get_config()  # noqa: F821 -- injected by traitlets when nbgrader loads this file

c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"

# The first cell of a notebook may build the embedding model, seed SUPPLYCHAIN
# and write ~130 memories in a fresh WORKSHOP_HOME; nbgrader's default of 30 s
# per cell is far too short. A learner's endless loop is interrupted after this.
c.Execute.timeout = 300
c.Execute.interrupt_on_timeout = True
# Keep the kernel's own start-up notices (e.g. "running over TCP without
# encryption") out of the grader's terminal; errors are still shown.
c.Execute.extra_arguments = ["--IPKernelApp.log_level=ERROR"]

# The stub learners see in place of each ### BEGIN SOLUTION ... ### END SOLUTION block.
c.ClearSolutions.code_stub = {
    "python": "# YOUR CODE HERE\nraise NotImplementedError(\"replace this line with your solution\")"
}

# A graded cell with any stderr output scores 0 in nbgrader. The checks keep
# their own output clean, but a hidden test (or a library under it) may print
# a Python warning or a progress bar to stderr; drop exactly those outputs
# before scoring. Errors are separate outputs and still fail the cell.
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"^(\S+:\d+: )?\w*Warning: |\d+%\|"
