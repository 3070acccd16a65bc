CREATE TABLE "flow_funnel" (
	"day" date NOT NULL,
	"locale" text NOT NULL,
	"gateway" text NOT NULL,
	"step" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "flow_funnel_day_locale_gateway_step_pk" PRIMARY KEY("day","locale","gateway","step")
);
--> statement-breakpoint
CREATE TABLE "flow_states" (
	"day" date NOT NULL,
	"machine" text NOT NULL,
	"state" text NOT NULL,
	"entries" integer DEFAULT 0 NOT NULL,
	"exits" integer DEFAULT 0 NOT NULL,
	"ended" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "flow_states_day_machine_state_pk" PRIMARY KEY("day","machine","state")
);
--> statement-breakpoint
CREATE TABLE "flow_transitions" (
	"day" date NOT NULL,
	"machine" text NOT NULL,
	"transition" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "flow_transitions_day_machine_transition_pk" PRIMARY KEY("day","machine","transition")
);
--> statement-breakpoint
CREATE TABLE "flow_vitals" (
	"day" date NOT NULL,
	"machine" text NOT NULL,
	"state" text NOT NULL,
	"metric" text NOT NULL,
	"bucket_ms" integer NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "flow_vitals_day_machine_state_metric_bucket_ms_pk" PRIMARY KEY("day","machine","state","metric","bucket_ms")
);
