"""The audit: every position of a recorded game solved and compared with the recorded run
(`run`), and the flags that name what an audited position shows (`flags`)."""
