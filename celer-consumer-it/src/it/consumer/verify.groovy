// The program ran: its answer is in the build's log (a failed check in main has already failed the build).
def log = new File(basedir, 'build.log').text
assert log.contains('GET /hello: 200 hello') : 'the consumer did not print its answer: see build.log'
