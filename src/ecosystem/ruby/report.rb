# frozen_string_literal: true

# loopgate's start hook for the oracle's runs (issue 40, item 2; see `room::hook`), loaded by the oracle through
# `RUBYOPT=-r<this file>` in every Ruby process of the run. minitest and RSpec print a dot per passing test and
# name only the failures, so the events this hook writes are where the verdict reads every test's name: the
# runner's own objects report each test, one JSON line per event, to `report/events.jsonl` in the room (beside
# this file's directory), the same file the other start hooks write.
#
# No variable names the file: every Ruby process of the run (`rake test` runs its tests in a child `ruby`) finds
# it from where this hook stands, as RUBYOPT names the hook for every Ruby process anyway.
#
# Nothing is printed and nothing is loaded until minitest or RSpec is: `require` is watched until both have been
# seen. minitest: its run's reporter (`Minitest.init_plugins`, called with the run's composite reporter, whatever
# plugins are on or off) gets one more reporter. RSpec: every reporter gets one more listener, not a formatter,
# so the user's formatters (and RSpec's default) print as they would; `SPEC_OPTS=--format json` would have
# replaced them. Only the first run of a process that starts is recorded (RSpec run inside RSpec is not ours).
module LoopgateReport
  PATH = File.expand_path("../../report/events.jsonl", __dir__)

  @fd = nil
  @outer = nil
  @minitest = false
  @rspec = false
  @done = false

  class << self
    attr_accessor :outer

    def write(runner, event, name = "")
      @fd ||= File.open(PATH, File::WRONLY | File::APPEND | File::CREAT, 0o600)
      line = %({"runner":#{json(runner)},"pid":#{Process.pid},"event":#{json(event)},"name":#{json(name)}})
      @fd.syswrite("#{line}\n")
    rescue SystemCallError, IOError
      nil
    end

    # A JSON string, written by hand: requiring `json` here would load it into the tests' process, where code
    # under test that forgot its own `require "json"` would then pass.
    def json(text)
      text = text.to_s.encode("UTF-8", invalid: :replace, undef: :replace)
      %("#{text.gsub(/["\\\x00-\x1f]/) { |c| format("\\u%04x", c.ord) }}")
    end

    # After every `require`: hooks a runner that is now loaded, until both are.
    def watch
      @done ||= seen
    end

    def seen
      hook_minitest if !@minitest && defined?(::Minitest::AbstractReporter) && ::Minitest.respond_to?(:init_plugins)
      hook_rspec if !@rspec && defined?(::RSpec::Core::Reporter)
      @minitest && @rspec
    end

    def hook_minitest
      @minitest = true
      ::Minitest.singleton_class.prepend(MinitestRun)
    end

    def hook_rspec
      @rspec = true
      ::RSpec::Core::Reporter.prepend(RSpecReporter)
    end
  end

  # The reporter minitest's run reports to, beside its own.
  class MinitestReporter
    def start
      LoopgateReport.outer = self if LoopgateReport.outer.nil?
      LoopgateReport.write("minitest", "begin") if LoopgateReport.outer.equal?(self)
    end

    def prerecord(_klass, _name); end

    def record(result)
      return unless LoopgateReport.outer.equal?(self)

      event = if result.skipped? then "skip" elsif result.passed? then "pass" else "fail" end
      klass = result.respond_to?(:klass) ? result.klass : result.class.name
      LoopgateReport.write("minitest", event, "#{klass}##{result.name}")
    end

    def report
      return unless LoopgateReport.outer.equal?(self)

      LoopgateReport.write("minitest", "end")
      LoopgateReport.outer = nil
    end

    def passed?
      true
    end
  end

  # `Minitest.init_plugins`, where the run's reporter is `Minitest.reporter`.
  module MinitestRun
    def init_plugins(options)
      super
      reporter << MinitestReporter.new if respond_to?(:reporter) && reporter
    end
  end

  # The listener each RSpec reporter gets.
  class RSpecListener
    # A dry run reports every example passed without running it, however it was asked for (`--dry-run` in any
    # options file or `SPEC_OPTS`, or code under test setting `dry_run` as it loads): an example that passes in a
    # run that was or is dry did not run, and is reported skipped.
    def self.dry_run?
      config = ::RSpec.configuration
      config.respond_to?(:dry_run?) && config.dry_run?
    rescue StandardError
      true
    end

    def start(_notification)
      @dry = RSpecListener.dry_run?
      LoopgateReport.outer = self if LoopgateReport.outer.nil?
      LoopgateReport.write("rspec", "begin") if LoopgateReport.outer.equal?(self)
    end

    def example(event, notification)
      LoopgateReport.write("rspec", event, notification.example.full_description) if LoopgateReport.outer.equal?(self)
    end

    def example_passed(notification)
      @dry ||= RSpecListener.dry_run?
      example(@dry ? "skip" : "pass", notification)
    end

    def example_failed(notification)
      example("fail", notification)
    end

    def example_pending(notification)
      example("skip", notification)
    end

    def close(_notification)
      return unless LoopgateReport.outer.equal?(self)

      LoopgateReport.write("rspec", "end")
      LoopgateReport.outer = nil
    end
  end

  # `RSpec::Core::Reporter.new`: the listener joins before any formatter does.
  module RSpecReporter
    def initialize(*args, **kwargs)
      super
      register_listener(RSpecListener.new, :start, :example_passed, :example_failed, :example_pending, :close)
    end
  end

  # `require`, watched until both runners are hooked.
  module Require
    def require(path)
      loaded = super
      LoopgateReport.watch
      loaded
    end
  end
  Kernel.prepend(Require)
  watch
end
