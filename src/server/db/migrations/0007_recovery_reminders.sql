ALTER TABLE "orders" ADD COLUMN "recovery_reminders" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sign_in_tokens" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "sign_in_tokens" ADD CONSTRAINT "sign_in_tokens_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;